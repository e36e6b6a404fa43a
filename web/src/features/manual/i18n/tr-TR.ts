import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Kullanım kılavuzu',
  intro: 'Sevk konsolunun bu sürümünün neler yaptığı ve nasıl kullanılacağı.',
  sections: [
    {
      id: 'signin',
      title: 'Giriş',
      body: [
        '8 haneli sevk görevlisi hesabınızı ve şifrenizi girip Giriş yap’a basın. Konsolu yalnızca sevk görevlisi hesapları kullanabilir; bir terminal hesabı "hesap türü hatalı" uyarısıyla reddedilir.',
        '"Şifreyi hatırla" işaretliyse tarayıcı formu bir sonraki sefer doldurur. Şifre, bu tarayıcıdan hiç çıkmayan bir anahtarla şifrelenerek saklanır.',
        'Art arda beş hatalı şifreden sonra hesap 10 dakika kilitlenir. "Şifremi unuttum" hesaba bağlı e-posta adresine bir doğrulama kodu gönderir ve yeni şifre belirlemenizi sağlar.',
      ],
    },
    {
      id: 'shell',
      title: 'Ana pencere',
      body: [
        'Üstteki menü, hesabınızın kullanabileceği ekranları sabit bir sırayla listeler; daha az kullanılanlar "Diğer" altındadır. "Bu sürümde henüz yok" olarak işaretli ekranlar gelecek sürümler için ayrılmıştır.',
        'Sağ tarafta: canlı bağlantı ışığı (bağlıyken yeşil), dil, koyu/açık anahtarı, Ayarlar ve hesap menünüz (şifre değiştir, sürüm notları, bu kılavuz, çıkış).',
      ],
    },
    {
      id: 'tree',
      title: 'Gruplar ve terminaller',
      body: [
        'Sevk ekranı sabit gruplarınızı (alt gruplarıyla) ve geçici grupları gösterir. Her terminalde tür simgesi ve adı, çevrimiçiyken sinyal ve pil, engellendiğinde "Devre dışı" veya "Sersemletildi" etiketi, çevrimdışıyken son görülme zamanı yer alır. Nokta, o anda o grupta olan terminalleri gösterir.',
        'Her şey canlı güncellenir: çevrimiçi olan bir terminal sayfa yenilenmeden yeşile döner. En fazla 30 grup sekmeler hâlinde, daha fazlası kaydırılabilir tek bir ağaç olarak gösterilir.',
        'Arama kutusuyla bir terminali adına veya kimliğine göre bulun; anahtarlarla çevrimdışı terminalleri veya sevk görevlilerini gizleyin. Ayrıntılarını bilgi panelinde görmek için bir terminale tıklayın.',
      ],
    },
    {
      id: 'groups',
      title: 'Geçici ve sabit gruplar',
      body: [
        'Ağaçta terminalleri işaretleyip "Geçici grup"u seçerek geçici grup oluşturun. Adı zorunlu ve benzersizdir, en fazla 20 karakter olabilir (Latin alfabesi dışındaki karakterler 2 sayılır).',
        '"Yeni grup" en üst düzeyde veya bir üst grubun altında sabit grup oluşturur. Bir grubu yeniden adlandırmak, alt grup eklemek, silmek ya da kendi konuşma grubunuzu ona almak için gruba sağ tıklayın.',
      ],
    },
    {
      id: 'terminals',
      title: 'Terminal yönetimi',
      body: [
        'Bir terminale sağ tıklayarak (veya bilgi panelindeki düğmelerle) onu yeniden adlandırabilir, başka bir gruba taşıyabilir, mevcut grubunu uzaktan değiştirebilir, avatarını ayarlayabilir ya da sersemletebilir, devre dışı bırakabilir ve yeniden etkinleştirebilirsiniz. Bu son üç işlem her zaman onay ister.',
        'Sersemletme terminali geçici olarak, devre dışı bırakma kalıcı olarak engeller; yeniden etkinleştirme normale döndürür.',
      ],
    },
    {
      id: 'log',
      title: 'İşlem kaydı ve ek pencereler',
      body: [
        'İşlem kaydı en yeni olayları (terminallerin çevrimiçi/çevrimdışı olması, grup değişiklikleri, çağrı ayarları…) gerçekleştikçe gösterir. Filtreli tam geçmiş Kayıtlar ekranındadır.',
        '"Yeni pencere" bir ekranı ikinci monitör için ayrı bir tarayıcı penceresinde açar. Ek pencereler kendi başlarına bağlı kalır.',
      ],
    },
    {
      id: 'voice',
      title: 'Konuşma (bas-konuş)',
      body: [
        'Geçerli konuşma grubunuza konuşmak için boşluk tuşunu ya da sağ alttaki ses panelinin PTT düğmesini basılı tutun; dinlemek için bırakın. Kısayol tuşu Ayarlar’dan değiştirilebilir ve ek pencerelerde de çalışır.',
        'Ses paneli açık çağrıları listeler: kimin ne kadar süredir konuştuğunu ve ölçülen erişim süresini. Konuşan, ağaçta vurgulanır. SOS durumundaki bir telsiz her zaman önce söz alır; bir dispeçer sözü telsizden alabilir.',
        'Bir telsizin menüsünden onu tek başına arayabilir (yanıtlayana kadar çalar) ya da mikrofonunu sessizce dinleyebilirsiniz. "Geçici çağrı" işaretli telsizleri arar; "Genel çağrı" ve "Yayın" tüm telsizlere ulaşır, yayına yanıt verilemez.',
        'Aynı anda birkaç grubu duymak için grup menüsünden grupları izleyin. İkisi birlikte konuştuğunda hangisini duyacağınıza Ayarlar’daki ses çalma önceliği karar verir: en son konuşan, önce kendi konuşma grubunuz ya da önce dispeçerler; diğeri konuşuyor olarak gösterilir ve tek tıkla ona geçilir.',
        'Ses kayıtları, her konuşmayı zaman aralığı, telsiz, grup ve çağrı türüne göre listeler; listede çalın ya da indirin. Standart çözünürlüklü (SD) kayıtlar ne çalınabilir ne indirilebilir.',
      ],
    },
    {
      id: 'map',
      title: 'Harita ve izler',
      body: [
        'GPS ve harita, konumu olan her telsizi gösterir: yeşil çevrim içi, gri çevrim dışı, mavi konuşuyor, kırmızı SOS; konum eskiyse soluk. Uzaklaştığınızda işaretler kümelenir; kümenin üzerine gelince telsizleri listelenir, bir telsize tıklayınca ayrıntıları, çağrı, mesaj ya da izi açılır.',
        'Araçlar mesafe ve alan ölçer, harita sağlayıcısını ve temasını değiştirir, görünümdeki telsizleri listeler. Harita karoları alınamadığında yerleşik bir dünya haritası gösterilir.',
        'Coğrafi sınırlar: çokgen, daire ya da dikdörtgen çizin, adlandırın, "içeride" (çıkınca alarm) ya da "dışarıda" (girince alarm) seçin ve telsiz atayın. Her geçiş sesli bir sınır alarmı oluşturur.',
        'İz: bir telsiz ve aynı takvim ayı içinde bir zaman aralığı seçerek güzergâhını mesafe, hız ve duraklarla görün ve 20 kata kadar hızla oynatın.',
      ],
    },
    {
      id: 'messages',
      title: 'Mesajlar, tonlar ve medya',
      body: [
        'Mesajlar, her telsiz ve grup için okunmamış sayısıyla bir konuşma gösterir. Metin yazın ya da fotoğraf ve dosya ekleyin (yükleme çubukla gösterilir) ve her mesajın gönderildi durumundan teslim edildi durumuna geçişini izleyin. Çevrim dışı bir telsize giden mesaj saklanır ve geri geldiğinde teslim edilir.',
        'Tonlar kısa sesli uyarılardır: ses ve simgeyle ekleyin, sonra telsizlere ya da bir gruba gönderin.',
        'Medya bulutu, telsizlerin yüklediği fotoğraf, video ve kayıtları telsize ve zamana göre süzerek gösterir; önizlemek ya da indirmek için birini açın.',
      ],
    },
    {
      id: 'alarms',
      title: 'SOS alarmları',
      body: [
        'Bir SOS ne yapıyorsanız keser: alarm sesi alarm seviyesinde döngüyle çalar ve sekme arka planda olsa bile tarayıcı bildirim gösterir. Sesi durdurmak için alarmı onaylayın; biri onaylayana kadar yeniden duyurulur.',
        'Alarmdan telsizi haritada gösterebilir, arayabilir, dinleyebilir ve bir notla alarmı kapatabilirsiniz; telsize alarmı durdurması bildirilir. SOS yönetimi güncel ve geçmiş alarmları süzgeçlerle listeler.',
      ],
    },
    {
      id: 'lonework',
      title: 'Yalnız çalışanlar',
      body: [
        'Yalnız çalışan planı, bir çalışma süresi boyunca bir ila dört telsizi sabit aralıklarla kontrol eder. Her telsizden yoklama istenir; zamanında yanıt vermezse, çevrim dışı kalırsa, pili biterse, sinyali zayıfsa ya da meşgulse, nedeniyle birlikte bir alarm çıkar. Plan çalışırken, alarmdayken ya da bittiğinde değiştirilemez.',
      ],
    },
    {
      id: 'reports',
      title: 'Raporlar',
      body: [
        'Raporlar, rapor ekranlarını açar: SOS alarm grafikleri ve listeleri, yalnız çalışan alarmları, coğrafi sınır alarmları, GPS verileri ve mesaj verileri. Her biri en fazla bir takvim ayını arar ve Excel’e aktarır.',
      ],
    },
    {
      id: 'settings',
      title: 'Ayarlar, diller ve görünüm',
      body: [
        'Ayarlar; kısayol tuşlarını, sesleri ve ses düzeylerini, harita türünü, ses çalma önceliğini, dili ve görünümü içerir. Seçimler bu tarayıcıda saklanır.',
        'Görünümler: koyu, açık, ay gümüşü ve hayalet siyahı; ana renkler mavi, yeşil, kızıldeniz, camgöbeği ve güvenlik turuncusu. Kendi markası olan bir alan adı rengi herkes için belirleyebilir.',
        'Diller: İngilizce, Çince, Türkçe, İspanyolca, Fransızca ve Rusça. Tarayıcınızın dili bunlardan biriyse konsol o dilde, değilse İngilizce açılır.',
      ],
    },
  ],
} satisfies Shape<typeof en>;
